import { apiQuery } from '../cube';
import type { ListMeta } from './keys';

export interface ImportResult {
  id: string;
  importedAt: string;
  rowCount: number;
  importedBy: string | null;
  fileSha256: string;
  recorded: boolean;
  counts: Record<string, number>;
}
export interface ImportJob {
  jobId: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  importId?: string;
  rowCount?: number;
  recorded?: boolean;
  errors?: { path: string; line?: number; column?: string; message: string }[];
}
export interface ImportRecord {
  id: string;
  importedAt: string;
  rowCount: number;
  importedBy: string | null;
  fileSha256: string;
}
export interface Team {
  id: string;
  slug: string;
  name: string;
  externalRef: string | null;
  costCentreCode: string | null;
  orgUnit: { slug: string; name: string } | null;
  enabled: boolean;
  memberCount: number;
  projects: string[];
}
export interface Person {
  id: string;
  externalRef: string;
  email: string | null;
  displayName: string | null;
  employmentType: string;
  identities: { kind: string; value: string; source: string }[];
  teams: { id: string; slug: string; membershipSource: string }[];
}

export const registerImportsQuery = (page: number) => apiQuery<{ data: ImportRecord[]; meta: ListMeta }>('/api/register/imports', { page, perPage: 10 });
export const importJobQuery = (jobId: string) => apiQuery<{ data: ImportJob }>(`/api/register/imports/jobs/${jobId}`);
export const teamsQuery = (page: number) => apiQuery<{ data: Team[]; meta: ListMeta }>('/api/teams', { page, perPage: 50 });
export const peopleQuery = (page: number, team?: string) => apiQuery<{ data: Person[]; meta: ListMeta }>('/api/people', { page, perPage: 50, team });
