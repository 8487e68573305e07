export {
  STUDIO_PORT,
  type StudioExample,
  type StudioOptions,
  type StudioRecorderOptions,
  type StudioResponder,
  type StudioRunHooks,
  type StudioRunRequest,
  type StudioRunStarter,
  type StudioServeOptions,
  type StudioServer,
  type StudioWaitingRun,
  startStudio,
} from "./studio-server.js";
