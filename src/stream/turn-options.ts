/**
 * The options of one model turn (`streamTurn`): how to reach the model (connection-options.ts), the
 * signal that aborts it, and the event callback.
 *
 * @module
 */

import { notFunctionOption, notObjectOption, notSignalOption } from "../config/option-checks.ts";
import type { OptionTable } from "../config/option-table.ts";
import type { Telemetry } from "../telemetry/telemetry-options.ts";
import type { TurnEvent } from "../types.ts";
import { CONNECTION_OPTIONS, type ConnectionOptions } from "./connection-options.ts";

/** How to reach the model, and how hard to try. */
export interface TurnOptions extends ConnectionOptions {
  /** Aborting it ends the turn at once with stopReason `aborted` and code ABORTED. */
  signal?: AbortSignal | undefined;
  /**
   * Receives every event as it happens, instead of the iterator (which then yields nothing). Cheaper
   * when the caller forwards events anyway; a throw from it is not caught.
   */
  onEvent?: (event: TurnEvent) => void;
  /**
   * OpenTelemetry: a `chat` span for the turn (an agent run makes its own, under its `invoke_agent`
   * span), and GenAI metrics with a meter. See {@link Telemetry}.
   */
  telemetry?: Telemetry;
}

/** Every option `streamTurn` takes, in the order they are checked. */
export const TURN_OPTIONS: OptionTable<TurnOptions> = {
  ...CONNECTION_OPTIONS,
  signal: notSignalOption,
  onEvent: notFunctionOption,
  // Checked whole when the turn loads its telemetry (telemetry-problem.ts).
  telemetry: notObjectOption,
};
