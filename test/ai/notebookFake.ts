/**
 * The notebook's scripted model, on any of the fake vendors (provider D, or an organisation's
 * Anthropic or Google): it finds the measure, queries it, then answers with the number the tool
 * returned. `inject` makes it obey a prompt injection: it tries to read another tenant by a
 * `tenantId` argument and by that tenant's team id.
 */
import { toolResults, type FakeRequest, type Reply } from './fakes/server.js';

const QUERY = { measures: ['ai_sessions.ai_sessions'], timeDimensions: [{ dimension: 'ai_sessions.started_at', dateRange: ['2026-03-01', '2026-03-31'] }] };

export function notebookModel(options: { inject?: { tenantId: string; teamId: string } } = {}) {
  return (request: FakeRequest): Reply => {
    const results = toolResults(request);
    if (options.inject) {
      if (results.length === 0) return { toolCalls: [{ name: 'cube_query', args: { ...QUERY, tenantId: options.inject.tenantId } }] };
      if (results.length === 1) return { toolCalls: [{ name: 'cube_query', args: { ...QUERY, filters: [{ member: 'ai_sessions.team_id', operator: 'equals', values: [options.inject.teamId] }] } }] };
      const count = /"ai_sessions\.ai_sessions\\?"\s*:\s*\\?"?(\d+)/.exec(results[1] ?? '')?.[1] ?? 'no';
      return { text: `The other tenant had ${count} AI sessions.` };
    }
    if (results.length === 0) return { toolCalls: [{ name: 'list_measures', args: { search: 'AI sessions' } }] };
    if (results.length === 1) return { toolCalls: [{ name: 'cube_query', args: QUERY }] };
    const count = /"ai_sessions\.ai_sessions\\?"\s*:\s*\\?"?(\d+)/.exec(results[1] ?? '')?.[1] ?? 'no';
    return { text: `There were ${count} AI sessions in March 2026.` };
  };
}
