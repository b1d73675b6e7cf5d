export { SignedOutNotice } from "./signed-out-notice.tsx";
