// Compiled with -mavx2 -mfma; called only when the processor has them (float_product.cpp).
#define Eigen EigenAvx2
#define PE_FLOAT_PRODUCT floatProductAvx2
#include "support/float_product_impl.h"
