/* The one exported symbol of a built-in kernel library (see kernel_abi.h). */
#include "kernel_abi.h"

const td_abi_table *TD_PLUGIN_TABLE_FN(void);

__attribute__((visibility("default"))) const td_abi_table *td_kernel_table(void) { return TD_PLUGIN_TABLE_FN(); }
