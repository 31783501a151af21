"""ResNet basic block 64 -> 128, stride 2, 1 x 1 downsample, BatchNorm (training), on 32 x 64 x 112^2 fp32."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, 1, stride=stride, bias=False),
            nn.BatchNorm2d(out_channels),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        identity = self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


batch_size = 32
in_channels = 64
out_channels = 128
stride = 2
height = 112
width = 112


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, stride]


KERNELEVO = {
    "dtype": "float32",
    # cuDNN runs an fp32 convolution in TF32 by default (torch.backends.cudnn.allow_tf32), so the reference
    # misses exact fp32 by ~1e-3 on a GPU; KernelBench's original tolerance, 1e-2, admits both
    "atol": 1e-2,
    "rtol": 1e-2,
    "variants": {
        "small": {"batch_size": 2, "in_channels": 3, "out_channels": 4, "height": 8, "width": 8},
        "odd": {"batch_size": 3, "in_channels": 3, "out_channels": 5, "height": 9, "width": 11},
    },
}
