// Every method a lane or a CLI run can train with: the one place a method is added.
import { noIntervention, type Intervention } from '../rl/intervention.ts';
import { OffPolicyGuidance } from './rivals/offpolicy.ts';
import { PrefixHints } from './rivals/prefix.ts';
import { CritiqueRefinement } from './rivals/refine.ts';
import {
  DEFAULT_INSTRUCTOR,
  type InstructorOptions,
  type LessonSource,
} from './mentor/instructor.ts';
import { StaticHints } from './rivals/static.ts';
import { DEFAULT_MENTOR, MentorIntervention, type MentorOptions } from './mentor/mentor.ts';
import { ContextDistillation } from './context-distillation.ts';
import type { TeacherFormat } from '../tasks/index.ts';

interface MethodEntry {
  /** For legends, lane headings and the method menus. */
  readonly label: string;
  /** Its line in plots that compare every method. */
  readonly colour: string;
  /**
   * The intervention, in-process; `seed` is the run's seed, `mentor` the mentor's options,
   * `teacher` the notation of a teacher's worked solution where a method shows one, `name` what
   * a variant's runs are labelled (its method name, or the method it varies where the command
   * line spells it as that method's flag: cli/experiment-config.ts, VARIANT_FLAGS).
   */
  create(seed: number, mentor: MentorOptions, teacher: TeacherFormat, name: string): Intervention;
  /**
   * False where the method, as published, does not divide a group's advantages by its std (the
   * one trainer setting a method brings with it; GrpoConfig.scaleRewards).
   */
  readonly scaleRewards?: false;
  /** One of the rivals the protocol picks its best rival from (docs/protocol.md). */
  readonly rival?: true;
  /** A rival only where the family writes working (elsewhere the same as another rival). */
  readonly teacherOnly?: true;
  /** Runs only where the family writes working (a lesson made of working; docs/protocol.md). */
  readonly needsWorking?: true;
  /** The optional language-model agent can join its team (the page's LLM panel, `enableLlm`). */
  readonly llm?: true;
  /** The method this one varies in one respect (the rest as that method's). */
  readonly variantOf?: string;
}

const REGISTRY = {
  none: { label: 'GRPO', colour: '#6b7280', create: () => noIntervention },
  static: {
    label: 'GRPO + static hints',
    colour: '#d97706',
    create: (seed) => new StaticHints(seed),
    rival: true,
  },
  // The static library through the mentor's learning channel: hint source and channel apart.
  'static-unhinted': {
    label: 'GRPO + static hints, learned unhinted',
    colour: '#fbbf24',
    create: (seed) =>
      new StaticHints(seed, { name: 'static-unhinted', learn: 'unhinted-shaped-drawn' }),
    rival: true,
  },
  prefix: {
    label: 'GRPO + solution prefix',
    colour: '#7c3aed',
    create: (_, __, teacher) => new PrefixHints(undefined, teacher),
    rival: true,
  },
  offpolicy: {
    label: 'GRPO + off-policy reference',
    colour: '#0891b2',
    create: (_, __, teacher) => new OffPolicyGuidance('offpolicy', teacher),
    rival: true,
  },
  'offpolicy-full': {
    label: 'GRPO + LUFFY as published',
    colour: '#164e63',
    create: (_, __, teacher) => new OffPolicyGuidance('offpolicy-full', teacher),
    scaleRewards: false,
    rival: true,
  },
  // The written reference at the plain weight: a demonstration as strong as one can be.
  'offpolicy-plain': {
    label: 'GRPO + written reference, plain weight',
    colour: '#22d3ee',
    create: (_, __, teacher) => new OffPolicyGuidance('offpolicy-plain', teacher),
    rival: true,
  },
  // Where the family writes working: the final answer alone, no teacher's working (as offpolicy).
  'offpolicy-answer': {
    label: 'GRPO + off-policy answer alone',
    colour: '#67e8f9',
    create: () => new OffPolicyGuidance('offpolicy-answer'),
    rival: true,
    teacherOnly: true,
  },
  refine: {
    label: 'GRPO + critique refinement',
    colour: '#db2777',
    create: () => new CritiqueRefinement(),
    rival: true,
  },
  // Each refinement goes on from the critique's mark, what it says is right forced as a scaffold.
  'refine-from-mark': {
    label: 'GRPO + critique refinement from its mark',
    colour: '#f9a8d4',
    create: (_, __, ___, name) =>
      new CritiqueRefinement(DEFAULT_INSTRUCTOR.maxReveal, true, false, name),
    variantOf: 'refine',
  },
  'refine-full': {
    label: 'GRPO + Critique-GRPO as published',
    colour: '#9d174d',
    create: () => new CritiqueRefinement(DEFAULT_INSTRUCTOR.maxReveal, false, true),
    rival: true,
  },
  mentor: {
    label: 'GRPO + MENTOR',
    colour: '#059669',
    create: (_, mentor) => new MentorIntervention(mentor),
    llm: true,
  },
  // The mentor with one of its choices undone, each as it was before it was chosen
  // (docs/results/history.md says what each choice was worth).
  'mentor-importance': mentorVariant('GRPO + MENTOR, re-attempts importance-weighted', '#047857', {
    shapedLoss: undefined,
  }),
  'mentor-whole': mentorVariant('GRPO + MENTOR, re-attempts shaped whole', '#15803d', {
    shapedLoss: 'whole',
  }),
  'mentor-demonstrate': mentorVariant('GRPO + MENTOR, demonstrate channel', '#4ade80', {
    channel: 'demonstrate',
  }),
  // A failing replayed group of the easy level gets the mentor's usual help, not a reminder (on
  // a family that writes working, where no reminder can be given, the mentor itself: Amendment 6).
  'mentor-no-reminder': {
    label: 'GRPO + MENTOR without reminders',
    colour: '#a7f3d0',
    create: (_, mentor, __, name) => new MentorIntervention({ ...mentor, remind: false }, name),
    variantOf: 'mentor',
  },
  // What a family's own diagnosis is worth: the mentor reading answers against the reference
  // alone, with the hints any family reads (length, the answer's start).
  'mentor-generic': {
    label: 'GRPO + MENTOR, task-agnostic',
    colour: '#34d399',
    create: (_, mentor) =>
      new MentorIntervention(
        {
          ...mentor,
          diagnosis: 'generic',
          instructor: { ...mentor.instructor, familyHints: false },
        },
        'mentor-generic',
      ),
  },
  // The mentor's own learning channel and its controls (docs/protocol.md).
  'mentor-cd': {
    label: 'GRPO + MENTOR + distillation',
    colour: '#065f46',
    create: (_, mentor) =>
      new ContextDistillation('mentor-cd', new MentorIntervention(mentor), false),
  },
  'static-cd': {
    label: 'GRPO + static + distillation',
    colour: '#92400e',
    // Its hints are drawn again where they would be the mentor's own for the group.
    create: (seed, mentor) =>
      new ContextDistillation(
        'static-cd',
        new StaticHints(seed, { unlike: new MentorIntervention(mentor) }),
        false,
      ),
  },
  // Amendment 2's factorial (docs/protocol.md): hint source × learning channel.
  'mentor-sampled': {
    label: 'GRPO + MENTOR, learned under its help',
    colour: '#10b981',
    create: (_, mentor) =>
      new MentorIntervention(lessons(mentor, 'diagnosis', true), 'mentor-sampled'),
  },
  'random-step': {
    label: 'GRPO + random step',
    colour: '#a3a3a3',
    create: (seed, mentor) =>
      new MentorIntervention(lessons(mentor, 'random-step', false), 'random-step', seed),
    needsWorking: true,
  },
  'random-step-sampled': {
    label: 'GRPO + random step, learned under it',
    colour: '#d4d4d4',
    create: (seed, mentor) =>
      new MentorIntervention(lessons(mentor, 'random-step', true), 'random-step-sampled', seed),
    needsWorking: true,
  },
  'random-step-cd': {
    label: 'GRPO + random step + distillation',
    colour: '#525252',
    create: (seed, mentor) =>
      new ContextDistillation(
        'random-step-cd',
        new MentorIntervention(lessons(mentor, 'random-step', false), 'random-step', seed),
        false,
      ),
    needsWorking: true,
  },
  'teacher-working': {
    label: "GRPO + teacher's working",
    colour: '#f472b6',
    create: (_, mentor) =>
      new MentorIntervention(lessons(mentor, 'teacher', false), 'teacher-working'),
    needsWorking: true,
  },
  'teacher-sampled': {
    label: "GRPO + teacher's working, learned under it",
    colour: '#fbcfe8',
    create: (_, mentor) =>
      new MentorIntervention(lessons(mentor, 'teacher', true), 'teacher-sampled'),
    needsWorking: true,
  },
  // Distils nothing: the teacher's lesson is all scaffold, no hint, so the hinted and the bare
  // context are one (its runs are teacher-working's line for line; docs/results.md, the factorial).
  'teacher-cd': {
    label: "GRPO + teacher's working + distillation",
    colour: '#be185d',
    create: (_, mentor) =>
      new ContextDistillation(
        'teacher-cd',
        new MentorIntervention(lessons(mentor, 'teacher', false), 'teacher-working'),
        false,
      ),
    needsWorking: true,
  },
  'placebo-cd': {
    label: 'GRPO + MENTOR + placebo distillation',
    colour: '#6ee7b7',
    create: (_, mentor) =>
      new ContextDistillation('placebo-cd', new MentorIntervention(mentor), true),
  },
} as const satisfies Record<string, MethodEntry>;

/** The mentor with some of its instructor's options changed, as a variant of `mentor`. */
function mentorVariant(
  label: string,
  colour: string,
  change: Partial<InstructorOptions>,
): MethodEntry {
  return {
    label,
    colour,
    create: (_, mentor, __, name) => new MentorIntervention(instructed(mentor, change), name),
    variantOf: 'mentor',
  };
}

/** The mentor's options with some of its instructor's changed. */
function instructed(mentor: MentorOptions, change: Partial<InstructorOptions>): MentorOptions {
  return { ...mentor, instructor: { ...mentor.instructor, ...change } };
}

/** The mentor's rounds, strengths and keeper with another hint source or learning channel. */
function lessons(mentor: MentorOptions, source: LessonSource, underHelp: boolean): MentorOptions {
  return instructed(mentor, { source, underHelp });
}

export type Method = keyof typeof REGISTRY;
export const METHODS = Object.keys(REGISTRY) as readonly Method[];
/**
 * The rivals, today's forms and as published, of which the protocol names the best; `teacher`:
 * on a family whose worked solutions need a teacher (TaskFamily.teacherSolution).
 */
export function rivalMethods(teacher: boolean): readonly Method[] {
  return METHODS.filter((m) => {
    const e: MethodEntry = REGISTRY[m];
    return e.rival && (teacher || !e.teacherOnly);
  });
}
/** Methods with help to give, which run in a mentor worker; `none` needs none. */
export type HostedMethod = Exclude<Method, 'none'>;

/**
 * The page's own method: the person's code from its editor, run in the mentor worker. Not one of
 * METHODS: the command line takes a module file instead (`--method path.js`).
 */
export const CUSTOM = 'custom';
export type LaneMethod = Method | typeof CUSTOM;
/** The methods a lane of the page can train with. */
export const LANE_METHODS: readonly LaneMethod[] = [...METHODS, CUSTOM];

export function laneMethodLabel(method: LaneMethod): string {
  return method === CUSTOM ? 'GRPO + custom mentor' : methodLabel(method);
}

export function isMethod(name: string): name is Method {
  return Object.hasOwn(REGISTRY, name);
}

export function methodLabel(method: Method): string {
  return REGISTRY[method].label;
}

export function methodColour(method: Method): string {
  return REGISTRY[method].colour;
}

/** Whether `method` runs only where the family writes working (random-step*, teacher-*). */
export function needsWorking(method: string): boolean {
  const entry: MethodEntry | undefined = isMethod(method) ? REGISTRY[method] : undefined;
  return entry?.needsWorking ?? false;
}

/** Whether the language-model agent can join `method`'s team (a custom or module method: no). */
export function takesLlm(method: string): boolean {
  const entry: MethodEntry | undefined = isMethod(method) ? REGISTRY[method] : undefined;
  return entry?.llm ?? false;
}

/** Whether a run of `method` divides advantages by the group's std (a module method: as GRPO). */
export function methodScalesRewards(method: string): boolean {
  const entry: MethodEntry | undefined = isMethod(method) ? REGISTRY[method] : undefined;
  return entry?.scaleRewards ?? true;
}

/**
 * The intervention behind a method name; an unknown name is an error naming the known ones.
 * `teacher`: the notation of the worked solutions a method shows (docs/protocol.md, Amendment 2).
 */
export function createIntervention(
  method: string,
  seed: number,
  mentor: MentorOptions = DEFAULT_MENTOR,
  teacher: TeacherFormat = 'own',
  name: string = method,
): Intervention {
  if (!isMethod(method))
    throw new Error(`unknown method ${JSON.stringify(method)}; known: ${METHODS.join(', ')}`);
  return REGISTRY[method].create(seed, mentor, teacher, name);
}

/** The method `method` varies in one respect (`mentor` for `mentor-whole`), or null. */
export function variantOf(method: string): Method | null {
  const entry: MethodEntry | undefined = isMethod(method) ? REGISTRY[method] : undefined;
  const of = entry?.variantOf;
  return of !== undefined && isMethod(of) ? of : null;
}
