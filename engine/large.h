/* The large tier's cost (contracts/gen_large.h): what one of its cases needs, stated
 * before a run (`run|certify --large`) and checked against this machine. */
#ifndef TD_LARGE_H
#define TD_LARGE_H

#include <stddef.h>
#include <stdint.h>

#include "contract.h"

typedef struct td_large_need {
    uint64_t reserve; /* bytes of address space reserved (MAP_NORESERVE) while a case runs */
    uint64_t commit;  /* bytes of memory it commits, about (windows, shared buffers, page tables) */
} td_large_need;

/* What a large case of contract k needs (decodes one: a reservation and a few pages).
 * 0, or -1 when k has no large tier or the case could not be reserved. */
int td_large_need_of(const td_contract *k, td_large_need *need);
/* 0 when this process can reserve need->reserve and the machine has need->commit of
 * memory available (MemAvailable; the environment variable TD_LARGE_MEMAVAIL_MIB
 * stands in for it in tests); else -1 with the reason in why. */
int td_large_check(const td_large_need *need, char *why, size_t n);
/* "reserves 72.0 GiB of address space, commits about 170 MiB" */
void td_large_describe(const td_large_need *need, char *buf, size_t n);

#endif
