import { useDeferredValue } from 'react';
import { useQuery, type AnyVariables, type UseQueryArgs, type UseQueryResponse } from 'urql';

/**
 * useQuery, its answers rendered as a transition: urql hands a result over outside any React event,
 * which React would render in one piece (a long task on a slow phone: a list of payments, the
 * overview); deferred, React renders it in slices and keeps the page responding meanwhile.
 */
export function useDeferredQuery<Data = any, Variables extends AnyVariables = AnyVariables>(args: UseQueryArgs<Variables, Data>): UseQueryResponse<Data, Variables> {
  const [result, refetch] = useQuery<Data, Variables>(args);
  return [useDeferredValue(result), refetch];
}
