// Compiled with -mavx512f -mavx512dq -mavx512vl -mfma; called only when the processor has them.
#define Eigen EigenAvx512
#define PE_FLOAT_PRODUCT floatProductAvx512
#include "support/float_product_impl.h"
