/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { AI_VENDOR_SOURCES } from '../db/schema/index.js';

export const Params = z.object({ source: z.enum(AI_VENDOR_SOURCES) });
