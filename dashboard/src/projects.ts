import { useQuery } from 'urql';
import { graphql } from './graphql.js';
import { useMode } from './mode.js';

const Projects = graphql(`
  query DashboardProjects {
    viewer {
      merchant {
        id
        projects {
          id
          name
          sandbox
          active
        }
      }
    }
  }
`);

/** The merchant's projects, for pickers; [] while loading. */
export function useProjects() {
  const [result] = useQuery({ query: Projects });
  return result.data?.viewer?.merchant?.projects ?? [];
}

/** The projects of the side shown (live, or test under /dashboard/test): pickers never mix the two. */
export function useModeProjects() {
  const sandbox = useMode() === 'test';
  return useProjects().filter((p) => p.sandbox === sandbox);
}

/**
 * Each project's section title: its name, «(آزمایشی)» for a sandbox, and where two projects would
 * read the same, the start of its id, so every section of a page has its own accessible name.
 */
export function projectTitles(projects: readonly { id: string; name: string; sandbox: boolean }[]): Map<string, string> {
  const plain = (p: { name: string; sandbox: boolean }) => `${p.name}${p.sandbox ? ' (آزمایشی)' : ''}`;
  const seen = new Map<string, number>();
  for (const p of projects) seen.set(plain(p), (seen.get(plain(p)) ?? 0) + 1);
  return new Map(projects.map((p) => [p.id, seen.get(plain(p))! > 1 ? `${plain(p)} — ${p.id.slice(0, 8)}` : plain(p)]));
}
