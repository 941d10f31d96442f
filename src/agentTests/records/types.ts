/**
 * Checks on the conversation record (the Conversations API's `state`, per-turn `intents`, `entities`, `is_ood`,
 * `latency`, the record's handoff, counts and `metrics`), as written in a test file and as a run reports them.
 * docs/testing-agents.md, "Checks on the conversation record", shows each kind.
 */
import type { TextRange } from '../textRange';

/** What one key of the record's `state` must be. */
export type StateExpectation =
  | { readonly kind: 'equals'; readonly value: unknown }
  | { readonly kind: 'matches'; readonly source: string; readonly flags: string }
  | { readonly kind: 'exists' }
  | { readonly kind: 'absent' };

export interface StateCheck {
  readonly key: string;
  readonly expect: StateExpectation;
  readonly range: TextRange;
}

/** `metrics:` of a case: a key that must be present, or present with this value. */
export interface MetricCheck {
  readonly key: string;
  readonly value?: string;
  readonly range: TextRange;
}

/** The record checks of a case, checked on the conversation's record once the case's conversation is over. */
export interface RecordCaseChecks {
  readonly state?: readonly StateCheck[];
  readonly handoffReason?: string;
  readonly handoffDestination?: string;
  readonly numOod?: number;
  readonly numSilences?: number;
  readonly metrics?: readonly MetricCheck[];
}

/** The record checks of a turn, on the record's turn that answered it. */
export interface RecordTurnChecks {
  /** Each intent must be among those the platform recognised on the turn. */
  readonly intents?: readonly string[];
  /** Each entity must have been recognised with this value. */
  readonly entities?: Readonly<Record<string, string>>;
  /** Whether the platform marked the turn out of domain. */
  readonly ood?: boolean;
  /** The most the record's `latency` of the turn may be, in milliseconds. */
  readonly recordLatencyMs?: number;
}

/**
 * One record check's outcome. `not-checked`: the check could not be made (the record did not appear, the
 * transcript is hidden, no metrics are enabled, the key may not read records); never a pass.
 */
export type RecordCheckOutcome =
  | { readonly kind: 'passed'; readonly actual: string }
  | { readonly kind: 'failed'; readonly message: string; readonly expected: string; readonly actual: string }
  | { readonly kind: 'not-checked'; readonly reason: string };

export interface RecordCheckResult {
  /** The check as reports name it: `state.booking_reference`, `turn 2 intents`. */
  readonly name: string;
  /** Where the check is written. */
  readonly range: TextRange;
  /** The turn, from 0, of a per-turn check. */
  readonly turnIndex?: number;
  readonly outcome: RecordCheckOutcome;
}

/** A turn's answer latencies over every run of a case, and its `p95_latency_ms:` budget. */
export interface LatencyDistribution {
  readonly turnIndex: number;
  readonly range: TextRange;
  /** How many runs answered the turn. */
  readonly runs: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly budgetMs: number;
  readonly passed: boolean;
}
