#!/usr/bin/env python3
"""Draws the app icons (Sources/ShopWeb/Public/images/icon-*.png, apple-touch-icon.png) from the
brand mark of images/icon.svg with librsvg + cairo through ctypes (both ship with Chromium).
Usage: python3 scripts/render-app-icons.py Sources/ShopWeb/Public/images"""
import ctypes, sys
rsvg = ctypes.CDLL("librsvg-2.so.2"); cairo = ctypes.CDLL("libcairo.so.2")
class Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("width", ctypes.c_double), ("height", ctypes.c_double)]
rsvg.rsvg_handle_new_from_data.restype = ctypes.c_void_p
rsvg.rsvg_handle_new_from_data.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p]
rsvg.rsvg_handle_render_document.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(Rect), ctypes.c_void_p]
cairo.cairo_image_surface_create.restype = ctypes.c_void_p
cairo.cairo_create.restype = ctypes.c_void_p
cairo.cairo_create.argtypes = [ctypes.c_void_p]
cairo.cairo_surface_write_to_png.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
def render(svg, size, out):
    data = svg.encode()
    handle = rsvg.rsvg_handle_new_from_data(data, len(data), None)
    assert handle
    surface = cairo.cairo_image_surface_create(0, size, size)  # ARGB32
    cr = cairo.cairo_create(surface)
    ok = rsvg.rsvg_handle_render_document(handle, cr, ctypes.byref(Rect(0, 0, size, size)), None)
    assert ok
    assert cairo.cairo_surface_write_to_png(surface, out.encode()) == 0
S = '<path d="M41 22c-2-3-5.5-4.5-9.5-4.5-6 0-10 3.2-10 8 0 10.5 19.5 6.5 19.5 15 0 3.6-3.5 6-8.8 6-4.5 0-8-1.8-10.2-5" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/>'
rounded = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="16" fill="#b4532a"/>' + S + '</svg>'
# Maskable: full-bleed background, the mark inside the 80 % safe zone (scaled to 70 % around the centre).
full = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#b4532a"/><g transform="translate(9.6 9.6) scale(.7)">' + S + '</g></svg>'
touch = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#b4532a"/><g transform="translate(6.4 6.4) scale(.8)">' + S + '</g></svg>'
dest = sys.argv[1]
render(rounded, 192, dest + "/icon-192.png")
render(rounded, 512, dest + "/icon-512.png")
render(full, 512, dest + "/icon-maskable-512.png")
render(touch, 180, dest + "/apple-touch-icon.png")
