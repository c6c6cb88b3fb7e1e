#define HALF 0.5f
float half_of(float x) { return x * HALF + missing_in_header; }
