#include "COpenSSLShims.h"
int osec_shims_placeholder(void) { return 1; }
