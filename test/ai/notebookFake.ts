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

export interface Script {
  /** Matches the question (the request's first user message). */
  question: RegExp;
  /** The tool calls it makes, one per model step. */
  calls: { name: string; args: unknown }[];
  /** The final answer, from the tools' results (JSON text, in call order). */
  answer: (results: string[]) => string;
  /** The answer starts once this settles: the test releases it when it has seen the steps. */
  answerAfter?: Promise<unknown>;
}

/** The first user message of a request, whichever vendor's shape it has. */
function question(request: FakeRequest): string {
  const body = request.body ?? {};
  const first = (body.messages ?? body.contents ?? []).find((m: { role: string }) => m.role === 'user');
  return JSON.stringify(first ?? '');
}

/** A model that answers each known question by its script: one tool call per step, then the answer. */
export function scriptedModel(scripts: Script[]) {
  return (request: FakeRequest): Reply => {
    const text = question(request);
    const script = scripts.find((s) => s.question.test(text));
    if (!script) return { text: 'I have no script for this question.' };
    const results = toolResults(request);
    const call = script.calls[results.length];
    return call ? { toolCalls: [call] } : { text: script.answer(results), ...(script.answerAfter ? { after: script.answerAfter } : {}) };
  };
}

/** The rows of a cube_query result as the fake model reads them. */
export function rowsOf(result: string | undefined): Record<string, unknown>[] {
  try {
    const parsed = JSON.parse(result ?? '');
    return (parsed.value ?? parsed).rows ?? [];
  } catch {
    return [];
  }
}
