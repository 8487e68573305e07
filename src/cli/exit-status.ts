/** Exit status: the agent completed (or help, list, version). */
export const EXIT_OK = 0;
/** Exit status: the run did not complete, or configuration is missing or wrong. */
export const EXIT_FAILED = 1;
/** Exit status: a mistake on the command line. */
export const EXIT_USAGE = 2;
/** Exit status: the run is waiting for a person and nothing here could answer (no terminal, no --approve-all / --deny-all). */
export const EXIT_WAITING = 3;
