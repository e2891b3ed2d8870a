// Compiled by `npm run typecheck` (never run): starter/ and solution/ must export exactly the same
// types, names and signatures. An assignability check would miss an extra optional parameter or a
// widened type; this `Exact` only holds when each side is assignable to the other in every use.
import type * as StarterAssignor from "../../starter/src/range-assignor.ts";
import type * as StarterDecodeError from "../../starter/src/decode-error.ts";
import type * as StarterSubscription from "../../starter/src/subscription.ts";
import type * as SolutionAssignor from "../../solution/src/range-assignor.ts";
import type * as SolutionDecodeError from "../../solution/src/decode-error.ts";
import type * as SolutionSubscription from "../../solution/src/subscription.ts";

type Exact<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const subscriptionModules: Exact<typeof StarterSubscription, typeof SolutionSubscription> =
  true;
export const assignorModules: Exact<typeof StarterAssignor, typeof SolutionAssignor> = true;
export const decodeErrorModules: Exact<typeof StarterDecodeError, typeof SolutionDecodeError> =
  true;
export const subscriptionType: Exact<
  StarterSubscription.Subscription,
  SolutionSubscription.Subscription
> = true;
export const memberSubscriptionType: Exact<
  StarterAssignor.MemberSubscription,
  SolutionAssignor.MemberSubscription
> = true;
export const assignmentType: Exact<StarterAssignor.Assignment, SolutionAssignor.Assignment> = true;
