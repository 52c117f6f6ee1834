#ifndef SHOPPABLE_CVIPS_SHIM_H
#define SHOPPABLE_CVIPS_SHIM_H
#include <vips/vips.h>

/* libvips' operations take their optional arguments as a NULL-terminated variadic list, which
   Swift cannot call. These wrappers pass exactly the options Shoppable uses. */

/* Starts libvips once per process (vips_init is itself idempotent). 0 on success. */
static inline int shoppable_vips_init(void) {
    int status = vips_init("shoppable");
    /* No operation cache: it keys buffers by address, and a freed buffer's address is reused. */
    vips_cache_set_max(0);
    return status;
}

/* The image in `buf`, header only: pixels are decoded later, when an operation needs them.
   libvips does not copy `buf`: it must outlive the image. */
static inline VipsImage *shoppable_vips_image_from_buffer(const void *buf, size_t len) {
    return vips_image_new_from_buffer(buf, len, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/* The image in `buf` shrunk to `width` pixels wide (never enlarged), in sRGB, with the loader's
   shrink-on-load where the format has one, decoded into memory (the load is sequential: the
   pixels can then be encoded more than once). Decoder errors fail. */
static inline int shoppable_vips_thumbnail_buffer(void *buf, size_t len, VipsImage **out, int width) {
    VipsImage *lazy = NULL;
    int status = vips_thumbnail_buffer(buf, len, &lazy, width,
                                       "height", VIPS_MAX_COORD,
                                       "size", VIPS_SIZE_DOWN,
                                       "option_string", "fail_on=error",
                                       NULL);
    if (status != 0) return status;
    *out = vips_image_copy_memory(lazy);
    g_object_unref(lazy);
    return *out ? 0 : -1;
}

static inline int shoppable_vips_webpsave_buffer(VipsImage *image, void **buf, size_t *len, int quality) {
    return vips_webpsave_buffer(image, buf, len, "Q", quality, "strip", TRUE, NULL);
}

/* Alpha is flattened onto white: JPEG has none. Progressive, metadata stripped. */
static inline int shoppable_vips_jpegsave_buffer(VipsImage *image, void **buf, size_t *len, int quality) {
    VipsImage *flat = NULL;
    int status;
    if (vips_image_hasalpha(image)) {
        double white[3] = {255, 255, 255};
        VipsArrayDouble *background = vips_array_double_new(white, 3);
        status = vips_flatten(image, &flat, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        if (status != 0) return status;
        image = flat;
    }
    status = vips_jpegsave_buffer(image, buf, len, "Q", quality, "strip", TRUE, "interlace", TRUE,
                                  "optimize_coding", TRUE, NULL);
    if (flat) g_object_unref(flat);
    return status;
}

static inline int shoppable_vips_pngsave_buffer(VipsImage *image, void **buf, size_t *len) {
    return vips_pngsave_buffer(image, buf, len, "strip", TRUE, "compression", 9, NULL);
}

/* Test images: a width × height gradient with noise, 3 bands (or 4 with an alpha band). */
static inline int shoppable_vips_test_image(VipsImage **out, int width, int height, int alpha) {
    VipsImage *noise = NULL, *ramp = NULL, *sum = NULL, *bands = NULL, *cast = NULL;
    int status = vips_gaussnoise(&noise, width, height, "sigma", 40.0, "mean", 0.0, NULL);
    if (status == 0) status = vips_xyz(&ramp, width, height, NULL);
    if (status == 0) {
        VipsImage *x = NULL, *y = NULL, *r = NULL, *g = NULL, *b = NULL, *scaled_x = NULL, *scaled_y = NULL;
        double scale_x = 255.0 / (width > 1 ? width - 1 : 1), scale_y = 255.0 / (height > 1 ? height - 1 : 1);
        status = vips_extract_band(ramp, &x, 0, NULL);
        if (status == 0) status = vips_extract_band(ramp, &y, 1, NULL);
        if (status == 0) status = vips_linear1(x, &scaled_x, scale_x, 0, NULL);
        if (status == 0) status = vips_linear1(y, &scaled_y, scale_y, 0, NULL);
        if (status == 0) status = vips_add(scaled_x, noise, &r, NULL);
        if (status == 0) status = vips_add(scaled_y, noise, &g, NULL);
        if (status == 0) status = vips_linear1(r, &b, -1.0, 255.0, NULL);
        if (status == 0) {
            VipsImage *in[4] = {r, g, b, scaled_x};
            status = vips_bandjoin(in, &bands, alpha ? 4 : 3, NULL);
        }
        if (x) g_object_unref(x);
        if (y) g_object_unref(y);
        if (r) g_object_unref(r);
        if (g) g_object_unref(g);
        if (b) g_object_unref(b);
        if (scaled_x) g_object_unref(scaled_x);
        if (scaled_y) g_object_unref(scaled_y);
    }
    if (status == 0) status = vips_cast(bands, &cast, VIPS_FORMAT_UCHAR, NULL);
    if (status == 0) status = vips_copy(cast, out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    if (noise) g_object_unref(noise);
    if (ramp) g_object_unref(ramp);
    if (bands) g_object_unref(bands);
    if (cast) g_object_unref(cast);
    return status;
}

#endif
