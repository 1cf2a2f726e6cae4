"""Convolution kernels for the thumbnail pipeline."""

from typing import List, Sequence

from PIL import ImageFilter  # type: ignore[import-untyped]

Kernel = List[List[float]]

# Kernels are written as aligned matrices; keep them readable.
# fmt: off
SHARPEN: Kernel = [
    [ 0, -1,  0],
    [-1,  5, -1],
    [ 0, -1,  0],
]

BOX_BLUR: Kernel = [
    [1/9, 1/9, 1/9],
    [1/9, 1/9, 1/9],
    [1/9, 1/9, 1/9],
]

EDGE: Kernel = [
    [-1, -1, -1],
    [-1,  8, -1],
    [-1, -1, -1],
]
# fmt: on

KERNELS = {"sharpen": SHARPEN, "box-blur": BOX_BLUR, "edge": EDGE}  # lookup by CLI name


def kernel_sum(kernel: Kernel) -> float:
    return sum(sum(row) for row in kernel)


def normalized(kernel: Kernel) -> Kernel:
    total = kernel_sum(kernel)
    if total == 0:  # edge kernels sum to zero, leave them alone
        return [list(row) for row in kernel]
    return [[value / total for value in row] for row in kernel]


def as_pil_filter(kernel: Kernel):
    flat = [value for row in kernel for value in row]
    return ImageFilter.Kernel((3, 3), flat, scale=kernel_sum(kernel) or 1)


identity = lambda pixels, x, y: pixels[y][x]  # noqa: E731


def apply(kernel: Kernel, pixels: Sequence[Sequence[float]], x: int, y: int) -> float:
    acc = 0.0
    for dy, row in enumerate(kernel):
        for dx, weight in enumerate(row):
            acc += weight * pixels[y + dy - 1][x + dx - 1]
    return acc
