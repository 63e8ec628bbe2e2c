/* The tilediff subcommands.  Each returns the process exit status of DESIGN.md:
 * 0 all agreed, 1 a disagreement was found, 2 bad usage or bad input, 3 internal error. */
#ifndef TD_CLI_COMMANDS_H
#define TD_CLI_COMMANDS_H

enum { TD_EXIT_OK = 0, TD_EXIT_FINDING = 1, TD_EXIT_USAGE = 2, TD_EXIT_INTERNAL = 3 };

/* argv[0] is the subcommand name. */
int td_cmd_cast(int argc, char **argv);
int td_cmd_list(int argc, char **argv);
int td_cmd_run(int argc, char **argv);
int td_cmd_repro(int argc, char **argv);
int td_cmd_explain(int argc, char **argv);
int td_cmd_certify(int argc, char **argv);
int td_cmd_report(int argc, char **argv);
int td_cmd_selftest(int argc, char **argv);
int td_cmd_minimize(int argc, char **argv);
int td_cmd_corpus_stats(int argc, char **argv);
int td_cmd_digest(int argc, char **argv);
int td_cmd_corpus_seed(int argc, char **argv);
int td_cmd_corpus_regress(int argc, char **argv);
int td_cmd_regress(int argc, char **argv);
int td_cmd_diff(int argc, char **argv);
int td_cmd_audit(int argc, char **argv);

#endif
