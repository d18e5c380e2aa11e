import type { Data, ImportJob, ImportRecord, ImportResult, List, Person, Team } from '../contract';
import { apiQuery } from '../cube';

export type { ImportJob, ImportRecord, ImportResult, Person, Team };

export const registerImportsQuery = (page: number) => apiQuery<List<ImportRecord>>('/api/register/imports', { page, perPage: 10 });
export const importJobQuery = (jobId: string) => apiQuery<Data<ImportJob>>(`/api/register/imports/jobs/${jobId}`);
export const teamsQuery = (page: number) => apiQuery<List<Team>>('/api/teams', { page, perPage: 50 });
export const peopleQuery = (page: number, team?: string) => apiQuery<List<Person>>('/api/people', { page, perPage: 50, team });
