/*
 * recording_names.h - the names each recording keeps beside its traces
 * (name/name_store.h, written by name/name_store_file.h), one store
 * per directory that traces are read from, for as long as stoke runs: every
 * trace loaded adds what its binaries named, and is named from it where a
 * binary changed since the run or is gone.
 *
 * Never: writes a store that gained nothing, or says any one thing about a
 * directory more than once.
 */
#ifndef STOKE_RECORDING_NAMES_H
#define STOKE_RECORDING_NAMES_H

/* The store's file in a recording directory. */
#define STOKE_RECORDING_NAMES_FILE "stoke-names.zst"

struct stoke_name_store;

/* The store of the directory holding the trace at trace_path, read on
 * first use (a damaged one is reported once and left out). Never NULL. */
struct stoke_name_store *stoke_recording_names_of(const char *trace_path);

/* After a trace of that directory is loaded: writes its store if it
 * gained names (a directory where it cannot is reported once), and says
 * once per directory that stored names stood in for a binary (stood_in:
 * which and why, from the symbolizer; NULL when none did). */
void stoke_recording_names_settle(const char *trace_path, const char *stood_in);

/* The line said when stored names stood in, for a report to carry too;
 * NULL when they did not. Valid until the next load. */
const char *stoke_recording_names_note(void);

#endif
