export {
  STUDIO_PORT,
  type StudioExample,
  type StudioOptions,
  type StudioRecorderOptions,
  type StudioRunRequest,
  type StudioRunStarter,
  type StudioServeOptions,
  type StudioServer,
  startStudio,
} from "./studio-server.js";
