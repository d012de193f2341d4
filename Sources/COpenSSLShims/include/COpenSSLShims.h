#ifndef OPENSEC_COPENSSL_SHIMS_H
#define OPENSEC_COPENSSL_SHIMS_H
#include <openssl/evp.h>
int osec_shims_placeholder(void);
#endif
