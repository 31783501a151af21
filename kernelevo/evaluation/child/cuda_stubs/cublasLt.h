#pragma once
typedef struct cublasLtContext* cublasLtHandle_t;
