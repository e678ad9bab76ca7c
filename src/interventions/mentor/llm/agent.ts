import {
  familyEntry,
  hintHolds,
  parseHint,
  renderHint,
  revealedFraction,
  type Hint,
  type HintKind,
  type Problem,
} from '../../../tasks/index.ts';
import type { MentorDiagnosis } from '../diagnosis.ts';
import type { ChatMessage, TextGenerator } from './runtime.ts';

/** What the LLM agent did, for the metrics: validity rate, share used, latency. */
export interface LlmStats {
  calls: number;
  /** Replies whose hint parsed, was true of the problem and revealed no more than allowed. */
  valid: number;
  rejectedUnparseable: number;
  rejectedFalse: number;
  rejectedLeaking: number;
  /** Replies that did not come (error, or later than the deadline). */
  failed: number;
  totalMs: number;
}

export type Advice =
  | { ok: true; hint: Hint; sentence: string; ms: number }
  | { ok: false; reason: string; ms: number };

export interface AdvisorOptions {
  /** Most of the answer a hint may reveal. */
  maxReveal: number;
  /** A reply later than this is dropped and the rules' hint is used. */
  deadlineMs: number;
  maxNewTokens: number;
}

export const DEFAULT_ADVISOR: AdvisorOptions = {
  maxReveal: 0.6,
  deadlineMs: 4000,
  maxNewTokens: 96,
};

// A hint form in words, for a family that does not describe its own (a task module's).
const GENERIC_FORMS: Partial<Record<HintKind, (units: string) => string>> = {
  length: (units) => `"#N" the answer has N ${units}`,
  prefix: (units) => `"pTEXT" the answer starts with these ${units}`,
};

/** How the problem's family writes answers and hints, for the agent's instructions. */
export function advisorGrammar(family: string): string {
  const entry = familyEntry(family);
  if (entry.advisorGrammar) return entry.advisorGrammar;
  const units = entry.answerUnit[1];
  const forms = entry.family.hintKinds.flatMap((k) => GENERIC_FORMS[k]?.(units) ?? []);
  return `Answers are strings of ${units}.${forms.length ? ` Hint forms: ${forms.join('; ')}.` : ''}`;
}

/** The chat the agent reads: the hint grammar, the problem, the failed attempts, the diagnosis. */
export function advicePrompt(
  d: MentorDiagnosis,
  problem: Problem,
  attempts: readonly string[],
  strength: number,
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You help a small model learn. Reply with exactly two lines: "HINT: <hint>" and "WHY: <one plain sentence for the teacher>". ' +
        `${advisorGrammar(problem.family)} Never give most of the answer away; prefer hints about the process.`,
    },
    {
      role: 'user',
      content:
        `Problem: ${problem.text}\nFailed attempts: ${attempts.slice(0, 4).join(', ') || '(empty)'}\n` +
        `Diagnosis: ${d.evidence}\nGive one hint of strength ${strength} (1 minimal … 3 detailed).`,
    },
  ];
}

/** HINT and WHY lines of a reply, validated: parseable, true of the problem, not leaking. */
export function judgeReply(
  reply: string,
  problem: Problem,
  maxReveal: number,
):
  | { ok: true; hint: Hint; sentence: string }
  | { ok: false; reason: 'unparseable' | 'false' | 'leaking'; detail: string } {
  const hintLine = /^\s*HINT:\s*(\S+)\s*$/m.exec(reply);
  if (!hintLine) return { ok: false, reason: 'unparseable', detail: 'no "HINT:" line' };
  const parsed = parseHint(problem.family, hintLine[1]);
  if (!parsed.ok) return { ok: false, reason: 'unparseable', detail: parsed.reason };
  if (!hintHolds(problem, parsed.hint))
    return {
      ok: false,
      reason: 'false',
      detail: `"${renderHint(parsed.hint)}" is not true of this problem`,
    };
  const revealed = revealedFraction(problem, parsed.hint);
  if (revealed > maxReveal)
    return {
      ok: false,
      reason: 'leaking',
      detail: `reveals ${Math.round(revealed * 100)}% of the answer`,
    };
  const why = /^\s*WHY:\s*(.+?)\s*$/m.exec(reply)?.[1] ?? '';
  return { ok: true, hint: parsed.hint, sentence: why.slice(0, 240) };
}

/**
 * The LLM agent of the mentor team: proposes a hint in the hint language for a diagnosed failure
 * and explains it in a sentence. Its hint is parsed with the same parseHint as every other and
 * rejected (and counted) when it does not parse, is not true of the problem, or reveals too
 * much; the caller then uses the rule-based Instructor's hint.
 *
 * It never holds the trainer up past its deadline: generation is told to stop at the next token
 * once the deadline passes, and advise() answers at the deadline whether or not the generator has
 * stopped. While a generation that missed its deadline is still winding down, further calls are
 * answered at once with no reply (and counted), so two generations never overlap.
 */
export class LlmAdvisor {
  readonly stats: LlmStats = {
    calls: 0,
    valid: 0,
    rejectedUnparseable: 0,
    rejectedFalse: 0,
    rejectedLeaking: 0,
    failed: 0,
    totalMs: 0,
  };
  /** A generation that missed its deadline and has not ended yet. */
  private late: Promise<void> | null = null;

  constructor(
    private readonly generator: TextGenerator,
    private readonly opts: AdvisorOptions = DEFAULT_ADVISOR,
  ) {}

  get modelId(): string {
    return this.generator.modelId;
  }

  /** Frees the model, after a late generation has ended (waiting at most one deadline for it). */
  async dispose(): Promise<void> {
    if (this.late) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.late,
        new Promise((r) => (timer = setTimeout(r, this.opts.deadlineMs))),
      ]);
      clearTimeout(timer);
    }
    await this.generator.dispose();
  }

  async advise(
    d: MentorDiagnosis,
    problem: Problem,
    attempts: readonly string[],
    strength: number,
  ): Promise<Advice> {
    const t0 = performance.now();
    this.stats.calls++;
    if (this.late) {
      this.stats.failed++;
      return this.done(t0, {
        ok: false,
        reason: 'no reply: the previous reply, past its deadline, is still being generated',
      });
    }
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const e = new Error(`no reply within ${this.opts.deadlineMs} ms`);
        abort.abort(e);
        reject(e);
      }, this.opts.deadlineMs);
    });
    const generation = this.generator.generate(advicePrompt(d, problem, attempts, strength), {
      maxNewTokens: this.opts.maxNewTokens,
      signal: abort.signal,
    });
    let reply: string;
    try {
      reply = await Promise.race([generation, deadline]);
    } catch (e) {
      if (abort.signal.aborted) this.windDown(generation);
      this.stats.failed++;
      return this.done(t0, { ok: false, reason: `no reply: ${(e as Error).message}` });
    } finally {
      clearTimeout(timer);
    }
    const judged = judgeReply(reply, problem, this.opts.maxReveal);
    if (!judged.ok) {
      if (judged.reason === 'unparseable') this.stats.rejectedUnparseable++;
      else if (judged.reason === 'false') this.stats.rejectedFalse++;
      else this.stats.rejectedLeaking++;
      return this.done(t0, { ok: false, reason: `${judged.reason}: ${judged.detail}` });
    }
    this.stats.valid++;
    return this.done(t0, { ok: true, hint: judged.hint, sentence: judged.sentence });
  }

  /** A generation past its deadline: remember it until it ends (its result is dropped). */
  private windDown(generation: Promise<string>): void {
    const ended: Promise<void> = generation.then(
      () => {},
      () => {},
    );
    this.late = ended;
    void ended.then(() => {
      if (this.late === ended) this.late = null;
    });
  }

  private done<T extends object>(t0: number, advice: T): T & { ms: number } {
    const ms = performance.now() - t0;
    this.stats.totalMs += ms;
    return { ...advice, ms };
  }
}
