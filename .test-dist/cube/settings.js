const DEFAULT_CUBE_SETTINGS = Object.freeze({ queryTimeoutMs: 12e4, continueWaitMs: 5e3 });
let current = DEFAULT_CUBE_SETTINGS;
function configureCube(settings) {
  current = Object.freeze({ ...settings });
}
const cubeSettings = () => current;
export {
  DEFAULT_CUBE_SETTINGS,
  configureCube,
  cubeSettings
};
