export const NOT_ALLOWED = 'The webhook host is not allowed: only public unicast addresses are.';

// Fixed texts per error code: Node's own messages carry the resolved addresses and ports
// ("connect ECONNREFUSED 10.0.0.7:443"), which would show a merchant our network's DNS answers.
const TEXTS: Record<string, string> = {
  ESERVICE_ADDRESS_NOT_ALLOWED: NOT_ALLOWED,
  ENOTFOUND: 'The webhook host name does not resolve.',
  EAI_AGAIN: 'The webhook host name could not be resolved (temporary DNS failure).',
  ECONNREFUSED: 'The connection was refused.',
  ECONNRESET: 'The connection was reset.',
  EPIPE: 'The connection was closed while sending.',
  EHOSTUNREACH: 'The host is unreachable.',
  ENETUNREACH: 'The network is unreachable.',
  ECONNABORTED: 'The connection was aborted.',
  HPE_INVALID_CONSTANT: 'The answer was not valid HTTP.',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired.',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: the certificate is self-signed.',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: a certificate in the chain is self-signed.',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: the certificate cannot be verified.',
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the certificate does not match the host name.",
};

/** An attempt's error in words, without any address, port or internal detail. */
export function describeSendError(err: NodeJS.ErrnoException, timeoutMs?: number): string {
  const code = err.code ?? '';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return `No response within ${(timeoutMs ?? 10_000) / 1000} s.`;
  if (TEXTS[code]) return TEXTS[code];
  if (code.startsWith('HPE_')) return 'The answer was not valid HTTP.';
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || /CERT/.test(code)) return `TLS failed (${code}).`;
  return code ? `The request failed (${code}).` : 'The request failed.';
}
