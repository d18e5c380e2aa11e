/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../../shared/schemas.js';

const NONE = '00000000-0000-0000-0000-000000000000';
export const Params = z.object({ id: Uuid }).catch({ id: NONE });
export const CellParams = z.object({ id: Uuid, cellId: Uuid }).catch({ id: NONE, cellId: NONE });

export const NotebookBody = z.strictObject({ title: z.string().trim().min(1).max(200), shared: z.boolean().optional() });
export const NotebookPatch = z.strictObject({ title: z.string().trim().min(1).max(200).optional(), shared: z.boolean().optional() });
export const CellBody = z.strictObject({ question: z.string().trim().min(1).max(4000) });
