import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Production hides the schema from strangers unless GRAPHQL_INTROSPECTION=1 says otherwise. */
export function useNoIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

const STATUS_CODES: Record<number, string> = { 404: 'not_found', 405: 'method_not_allowed', 406: 'not_acceptable', 415: 'unsupported_media_type' };

/**
 * Yoga answers a few refusals (406, 415, an unknown method) with an empty body; every error answer
 * of this service is JSON, so those get a GraphQL-shaped body with the catalog code.
 */
export function useJsonErrorBodies(): Plugin {
  return {
    onResponse({ response, setResponse, fetchAPI }) {
      if (response.status < 400 || response.body !== null) return;
      const code = STATUS_CODES[response.status] ?? 'invalid_request';
      const message = response.statusText || 'The request was refused.';
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('content-type', 'application/json; charset=utf-8');
      const body = JSON.stringify({ errors: [{ message, extensions: { code, details: {} } }] });
      setResponse(new fetchAPI.Response(body, { status: response.status, statusText: response.statusText, headers }));
    },
  };
}
