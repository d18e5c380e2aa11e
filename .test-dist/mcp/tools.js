import { registerComparisonTools } from "./comparisonTools.js";
import { registerDiscoveryTools } from "./discoveryTools.js";
import { registerFactTools } from "./factTools.js";
import { registerQueryTools } from "./queryTools.js";
function registerCubeTools(registry, context) {
  registerDiscoveryTools(registry, context);
  registerQueryTools(registry, context);
  registerComparisonTools(registry, context);
  registerFactTools(registry, context);
}
function registerTools(server, context) {
  registerCubeTools(server, context);
}
export {
  registerCubeTools,
  registerTools
};
