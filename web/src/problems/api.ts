// The problems' collection API (crates/server/src/problems.rs), as decoders.
import { array, literal, num, object, optional, str } from '../decode';
import type { Decoder } from '../decode';

export const solveStatus = literal('queued', 'solved', 'stopped', 'refused');

const summaryShape = {
  id: str, author: str, origin: str, title: str, date: str, stipulation: str, conditions: str, pieces: str,
  status: solveStatus, solve_ms: num,
};
export const problemSummary = object(summaryShape);
export const problemList = object({ problems: array(problemSummary) });
export const problemFull = object({ ...summaryShape, input: str, solution: str, error: str });
export const importReport = object({
  saved: num,
  report: array(object({ index: num, line: num, id: optional(str), stipulation: optional(str), error: optional(str) })),
});

export type ProblemSummary = typeof problemSummary extends Decoder<infer T> ? T : never;
export type ProblemFull = typeof problemFull extends Decoder<infer T> ? T : never;
export type ImportReport = typeof importReport extends Decoder<infer T> ? T : never;

/** A status in words. */
export function statusText(s: ProblemSummary['status'], ms: number): string {
  switch (s) {
    case 'queued': return 'waiting for the server’s solver';
    case 'solved': return `solved by the server in ${(ms / 1000).toFixed(2)} s`;
    case 'stopped': return `stopped by the server’s time limit after ${(ms / 1000).toFixed(0)} s (partial)`;
    case 'refused': return 'refused by the solver';
  }
}
