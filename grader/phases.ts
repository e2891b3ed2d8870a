/**
 * Grading in two phases. A grading runs and judges every visible case (built-in and `--random`,
 * cases/load.ts isPrivateCase) before it starts any private case (`--fixtures`), so nothing a
 * program does on a private case (what it prints, the CPU, memory or time it takes, the grader's
 * work judging it) can reach a visible case's result, which students see. A case's work is one
 * task, every run of it and its judging: a phase is over when all its cases' tasks are.
 *
 * Gradings that share the machine (a batch) share one PhaseGate: their visible phases run, a few
 * at a time, and only once every one of them is over does any private phase start, so one
 * submission's private cases cannot signal another's visible cases through the machine either.
 * The gate holds within one grader process; gradings in other processes are not its business.
 */
import pLimit, { type LimitFunction } from "p-limit";

/** One grading's side of the phases (GradeOptions.phases). */
export interface Phases {
  /**
   * This grading's visible phase is over: every visible case judged, or the grading ended
   * (failed build, error, abort). Calling it again does nothing.
   */
  visibleDone(): void;
  /** Resolves when this grading's private cases may start. */
  privateStart(): Promise<void>;
}

/**
 * The phases of a grading that shares the machine with no other: its private phase may start
 * as soon as its own visible phase is over (gradeSubmission waits for that itself).
 */
export function ownPhases(): Phases {
  return { visibleDone: () => {}, privateStart: () => Promise.resolve() };
}

/**
 * The point between the phases for a fixed number of gradings: at most `visibleAtOnce` of them
 * in their visible phase at a time (first come, first served), and every private phase held
 * until all of them have finished their visible phase.
 */
export class PhaseGate {
  private waiting: number;
  private entered = 0;
  private readonly opened: Promise<void>;
  private open: () => void = () => {};
  private readonly turns: LimitFunction;

  /**
   * @param gradings how many gradings will enter (each must, and each must end its visible
   *   phase, or no private phase ever starts)
   * @param visibleAtOnce how many may be in their visible phase at once (at least 1)
   */
  constructor(
    private readonly gradings: number,
    visibleAtOnce: number,
  ) {
    this.waiting = gradings;
    this.opened = new Promise<void>((resolve) => (this.open = resolve));
    if (gradings <= 0) this.open();
    this.turns = pLimit(Math.max(1, visibleAtOnce));
  }

  /**
   * Waits for a turn to grade visible cases; the turn is held until the grading's visibleDone.
   *
   * @throws Error when more gradings enter than the gate was made for
   */
  async enter(): Promise<Phases> {
    if (++this.entered > this.gradings)
      throw new Error(`PhaseGate: more than the ${this.gradings} gradings it was made for`);
    return new Promise<Phases>((admitted) => {
      void this.turns(
        () =>
          new Promise<void>((freeTurn) => {
            let done = false;
            admitted({
              visibleDone: () => {
                if (done) return;
                done = true;
                freeTurn();
                this.arrive();
              },
              privateStart: () => this.opened,
            });
          }),
      );
    });
  }

  private arrive(): void {
    if (--this.waiting === 0) this.open();
  }
}
