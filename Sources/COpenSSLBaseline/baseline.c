#include "COpenSSLBaseline.h"
int osec_baseline_placeholder(void) { return 1; }
