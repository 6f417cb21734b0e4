import { useQuery } from 'urql';
import { graphql } from './graphql.js';

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
