import { HearthError } from '@/lib/shared/errors';

/**
 * The turn budget: every model call and tool run costs fuel, and quotas cap model calls.
 * The quota is checked before fuel, so a blocked call is never made and costs nothing.
 */

export type BudgetLimits = {
  fuel: number;
  modelCalls: number;
  modelCallCost: number;
  /** The fuel is the person's own limit, set by the owner (below the Settings page's budget): the message says so. */
  personalFuel?: boolean;
};

export const DEFAULT_BUDGET: BudgetLimits = { fuel: 2000, modelCalls: 16, modelCallCost: 100 };

export class TurnBudget {
  fuelUsed = 0;
  modelCalls = 0;
  toolRuns = 0;

  constructor(private readonly limits: BudgetLimits) {}

  /** Charges a model call, or throws budget_exhausted before it is made. */
  chargeModelCall(): void {
    if (this.modelCalls >= this.limits.modelCalls) {
      throw new HearthError('budget_exhausted', `This turn reached its limit of ${this.limits.modelCalls} model calls.`, {
        fuelUsed: this.fuelUsed,
      });
    }
    this.chargeFuel(this.limits.modelCallCost, 'a model call');
    this.modelCalls++;
  }

  chargeToolRun(cost: number, name: string): void {
    this.chargeFuel(cost, `the ${name} tool`);
    this.toolRuns++;
  }

  private chargeFuel(cost: number, what: string): void {
    if (this.fuelUsed + cost > this.limits.fuel) {
      throw new HearthError(
        'budget_exhausted',
        `This turn ran out of fuel (${this.fuelUsed} of ${this.limits.fuel} used) before ${what}.${
          this.limits.personalFuel ? " That is the limit this Hearth's owner set for your turns." : ''
        }`,
        {
          fuelUsed: this.fuelUsed,
        },
      );
    }
    this.fuelUsed += cost;
  }
}
