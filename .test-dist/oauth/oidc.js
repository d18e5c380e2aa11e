import { restoreWarn } from "./quietRuntimeNotice.js";
export * from "oidc-provider";
restoreWarn();
