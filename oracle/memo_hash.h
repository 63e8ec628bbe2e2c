/* The slot hash shared by the per-case memos of both number types (td_sh_memo_*,
 * td_mp_memo_*): open addressing over a power-of-two table, linear probing. */
#ifndef TD_MEMO_HASH_H
#define TD_MEMO_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Home slot of `key` in a table of `cap` (a power of two, >= 2) slots.  Fibonacci
 * hashing (Knuth, TAOCP vol. 3, 6.4) keeps the HIGH bits of key * 2^64/phi: each of them
 * depends on every bit of the key.  The low bits of the product depend only on the
 * key's low bits, so keys packed from fields (tag, row, column) that differ only in
 * their high fields would share a home slot and cluster into long probe runs. */
static inline size_t td_memo_hash(uint64_t key, size_t cap) {
    unsigned bits = (unsigned)__builtin_ctzll((unsigned long long)cap);
    return bits ? (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - bits)) : 0;
}

#endif
