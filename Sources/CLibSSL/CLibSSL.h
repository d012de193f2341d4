// System-library bridge to OpenSSL 3's libssl (TLS). No code lives here; only OSecTLSCore imports this module.
#ifndef OPENSEC_CLIBSSL_H
#define OPENSEC_CLIBSSL_H
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/tls1.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#endif
