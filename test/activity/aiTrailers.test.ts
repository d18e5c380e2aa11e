import { expect } from 'chai';
import { aiToolOf, readTrailers } from '../../src/codehost/aiTrailers.js';

describe('AI co-author trailers', () => {
  it('recognises the documented tools by name or address', () => {
    const cases: [string, string | null][] = [
      ['Claude <noreply@anthropic.com>', 'claude'],
      ['Claude Code <claude@anthropic.com>', 'claude'],
      ['Claude Opus 4 <noreply@example.com>', 'claude'],
      ['Copilot <175728472+Copilot@users.noreply.github.com>', 'copilot'],
      ['GitHub Copilot <copilot@github.com>', 'copilot'],
      ['Cursor Agent <cursoragent@cursor.com>', 'cursor'],
      ['aider (gpt-4o) <noreply@aider.chat>', 'aider'],
      ['Codex <codex@openai.com>', 'codex'],
      ['gemini-code-assist[bot] <176961590+gemini-code-assist[bot]@users.noreply.github.com>', 'gemini'],
      ['google-labs-jules[bot] <161369871+google-labs-jules[bot]@users.noreply.github.com>', 'jules'],
      ['Windsurf <windsurf@codeium.com>', 'windsurf'],
      ['devin-ai-integration[bot] <158243242+devin-ai-integration[bot]@users.noreply.github.com>', 'devin'],
      ['Amazon Q Developer <q@example.com>', 'amazon-q'],
      ['openhands <openhands@all-hands.dev>', 'openhands'],
      // People who share a tool's first name are people.
      ['Claude Dupont <claude.dupont@example.fr>', null],
      ['Devin Smith <devin@example.com>', null],
      ['Bob Stone <bob@acme.example>', null],
    ];
    for (const [trailer, tool] of cases) expect(aiToolOf(trailer), trailer).to.equal(tool);
  });

  it('reads every Co-authored-by trailer whatever its case, and the distinct AI tools among them', () => {
    const message = 'Fix rounding\n\nCo-authored-by: Bob Stone <bob@acme.example>\nCO-AUTHORED-BY: Claude <noreply@anthropic.com>\nco-authored-by: Claude <noreply@anthropic.com>';
    expect(readTrailers(message)).to.deep.equal({
      coauthors: ['Bob Stone <bob@acme.example>', 'Claude <noreply@anthropic.com>', 'Claude <noreply@anthropic.com>'],
      aiCoauthors: ['claude'],
      aiTrailers: ['Co-authored-by: Claude <noreply@anthropic.com>'],
    });
    expect(readTrailers('No trailers here')).to.deep.equal({ coauthors: [], aiCoauthors: [], aiTrailers: [] });
  });

  it('keeps Made-with and Claude-Session trailers as written, whatever their case, and no other line', () => {
    const message = 'Add export\n\nmade-with: Cursor\nClaude-Session: 4f1c2a9e-77aa\nMade-with:\nReviewed-by: Bob <bob@acme.example>\nCo-authored-by: Bob Stone <bob@acme.example>';
    expect(readTrailers(message)).to.deep.equal({
      coauthors: ['Bob Stone <bob@acme.example>'],
      aiCoauthors: [],
      aiTrailers: ['Made-with: Cursor', 'Claude-Session: 4f1c2a9e-77aa'],
    });
  });
});
