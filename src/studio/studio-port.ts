/** The port the studio serves on when none is given. */
export const STUDIO_PORT = 4477;
