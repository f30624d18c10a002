/*
 * Reference implementations written from the published algorithm descriptions, compiled by
 * generate.sh to produce golden vectors for src/hash. Plain 64-bit C arithmetic, so it is an
 * independent check of the 32-bit-halves JavaScript.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t load64le(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

/* MurmurHash64A, Austin Appleby (MurmurHash2 64-bit for 64-bit platforms). */
static uint64_t murmur64a(const uint8_t *data, size_t len, uint64_t seed) {
  const uint64_t m = 0xc6a4a7935bd1e995ULL;
  uint64_t h = seed ^ ((uint64_t)len * m);
  size_t blocks = len / 8;
  for (size_t i = 0; i < blocks; i++) {
    uint64_t k = load64le(data + 8 * i);
    k *= m;
    k ^= k >> 47;
    k *= m;
    h ^= k;
    h *= m;
  }
  const uint8_t *tail = data + 8 * blocks;
  size_t rest = len & 7;
  if (rest) {
    for (size_t j = 0; j < rest; j++) h ^= (uint64_t)tail[j] << (8 * j);
    h *= m;
  }
  h ^= h >> 47;
  h *= m;
  h ^= h >> 47;
  return h;
}

#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

/* SipHash-c-d, Aumasson & Bernstein. */
static uint64_t siphash(const uint8_t *in, size_t len, const uint8_t key[16], int c, int d) {
  uint64_t k0 = load64le(key), k1 = load64le(key + 8);
  uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
  uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
#define ROUND                                                                     \
  do {                                                                            \
    v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);                     \
    v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                        \
    v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                        \
    v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);                     \
  } while (0)
  size_t blocks = len / 8;
  for (size_t i = 0; i < blocks; i++) {
    uint64_t m = load64le(in + 8 * i);
    v3 ^= m;
    for (int r = 0; r < c; r++) ROUND;
    v0 ^= m;
  }
  uint64_t b = (uint64_t)len << 56;
  for (size_t j = 0; j < (len & 7); j++) b |= (uint64_t)in[8 * blocks + j] << (8 * j);
  v3 ^= b;
  for (int r = 0; r < c; r++) ROUND;
  v0 ^= b;
  v2 ^= 0xff;
  for (int r = 0; r < d; r++) ROUND;
  return v0 ^ v1 ^ v2 ^ v3;
}

static void hex(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

int main(void) {
  uint8_t buf[300];
  uint8_t key[16];
  for (int i = 0; i < 16; i++) key[i] = (uint8_t)i;
  const uint64_t seeds[] = {0xadc83b19ULL, 0, 0xc6a4a7935bd1e995ULL, 0xffffffffffffffffULL};
  printf("{\n  \"murmur64a\": [\n");
  int first = 1;
  /* Inputs: bytes i*31+7 for lengths 0..64 and a few long ones; covers every tail length. */
  const size_t lens[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 23, 24, 25, 31, 32, 33, 63, 64, 65, 255, 256};
  for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
      size_t n = lens[li];
      for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i * 31 + 7);
      printf("%s    {\"bytes\": \"", first ? "" : ",\n");
      first = 0;
      hex(buf, n);
      printf("\", \"seed\": \"%llu\", \"hash\": \"%llu\"}", (unsigned long long)seeds[s],
             (unsigned long long)murmur64a(buf, n, seeds[s]));
    }
  }
  printf("\n  ],\n  \"siphash\": [\n");
  first = 1;
  for (int c = 1; c <= 2; c++) {
    int d = c == 1 ? 3 : 4;
    for (size_t n = 0; n < 64; n++) {
      for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)i;
      printf("%s    {\"c\": %d, \"d\": %d, \"key\": \"", first ? "" : ",\n", c, d);
      first = 0;
      hex(key, 16);
      printf("\", \"bytes\": \"");
      hex(buf, n);
      printf("\", \"hash\": \"%llu\"}", (unsigned long long)siphash(buf, n, key, c, d));
    }
  }
  printf("\n  ]\n}\n");
  return 0;
}
