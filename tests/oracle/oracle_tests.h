/* Test functions of test_oracle that live in tests/oracle/ (one file per subject). */
#ifndef TD_ORACLE_TESTS_H
#define TD_ORACLE_TESTS_H

void test_sum_orders(void **state);

#endif
