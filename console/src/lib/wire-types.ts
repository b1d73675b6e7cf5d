// The console's view of the /fe wire contract: type-only re-exports of the server's wire.ts, so a
// field renamed on the server fails `tsc -p console` instead of failing in a browser.
import type {
  AccountInfo,
  ActivityMinute,
  ActivityResponse,
  ActorDocument,
  ActorInformation,
  CreateActorRequest,
  LookupFailure,
  LookupRequest,
  LookupResult,
  MethodInformationModel,
  RefusalEntry,
  RefusalPage,
  RefusalReason,
  SignInRequest,
  SignInResponse,
  TriggerRequest,
} from "../../../server/src/fe/wire.ts";

export type {
  AccountInfo,
  ActivityMinute,
  ActivityResponse,
  ActorDocument,
  CreateActorRequest,
  LookupFailure,
  LookupRequest,
  LookupResult,
  SignInRequest,
  SignInResponse,
  RefusalEntry,
  RefusalPage,
  RefusalReason,
  TriggerRequest,
};
export type Actor = ActorInformation;
export type MethodInformation = MethodInformationModel;
