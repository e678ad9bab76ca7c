/** Largest head dimension the WGSL attention kernels hold in registers (MAX_DH in attention.wgsl). */
export const MAX_HEAD_DIM = 64;
