import type { ImportJob, ImportRecord, ImportResult, Person, Team } from '../contract';
import { apiQuery } from '../cube';

export type { ImportJob, ImportRecord, ImportResult, Person, Team };

export const registerImportsQuery = (page: number) => apiQuery('GET /api/register/imports', { query: { page, perPage: 10 } });
export const importJobQuery = (jobId: string) => apiQuery('GET /api/register/imports/jobs/:jobId', { params: { jobId } });
export const teamsQuery = (page: number) => apiQuery('GET /api/teams', { query: { page, perPage: 50 } });
export const peopleQuery = (page: number, team?: string) => apiQuery('GET /api/people', { query: { page, perPage: 50, team } });
