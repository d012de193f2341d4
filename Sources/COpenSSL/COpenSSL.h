// System-library bridge to OpenSSL 3's libcrypto (libssl is CLibSSL's). No code lives here.
#ifndef OPENSEC_COPENSSL_H
#define OPENSEC_COPENSSL_H
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/pkcs12.h>
#include <openssl/ecdsa.h>
#endif
