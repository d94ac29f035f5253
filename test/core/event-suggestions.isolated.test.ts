import { describe, expect, it, vi } from 'vitest';
import { HookEvent, UnknownEventError, validateFrontmatter } from 'agent-hooks';
import { editDistance } from '../../src/core/internal/edit-distance.js';
import { catchError } from '../support/catch-error.js';

vi.mock('../../src/core/internal/edit-distance.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/internal/edit-distance.js')>();
  return { editDistance: vi.fn(real.editDistance) };
});

describe('suggestions for an unknown event name', () => {
  it('still finds near misses', () => {
    const error = catchError(() => HookEvent.parse('PreTolUse')) as UnknownEventError;
    expect(error).toBeInstanceOf(UnknownEventError);
    expect(error.suggestions[0]).toBe('PreToolUse');
  });

  // Found by fuzzing HOOK.md frontmatter: `trigger: xxx…` of 80919 characters took most of a second to validate, as
  // every known name was compared with it character by character.
  it('compares no name far longer than any event with the known ones', () => {
    vi.mocked(editDistance).mockClear();
    const trigger = 'x'.repeat(80919);
    const { problems } = validateFrontmatter({ name: 'my-hook', description: 'A hook.', trigger }, { file: '/p/.agents/hooks/my-hook/HOOK.md' });
    expect(problems).toEqual([expect.objectContaining({ field: 'trigger', code: 'unknown-trigger' })]);
    expect(vi.mocked(editDistance).mock.calls.filter(([a, b]) => a.length > 1000 || b.length > 1000)).toEqual([]);
    expect(() => HookEvent.parse('y'.repeat(100_000))).toThrow(UnknownEventError);
    expect(vi.mocked(editDistance).mock.calls.filter(([a, b]) => a.length > 1000 || b.length > 1000)).toEqual([]);
  });
});
