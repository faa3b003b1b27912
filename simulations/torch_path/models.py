"""Image classifiers of the CNN benchmarks: the simple CNN of 000 Section 5.2 and a CIFAR ResNet-18.

* :class:`SimpleCNN` -- "a simple convolutional neural network composed of two convolution and pooling
  layers with dropout rate 0.5" (000 Section 5.2): Conv(3x3, 32) -> ReLU -> MaxPool(2) -> Conv(3x3, 64)
  -> ReLU -> MaxPool(2) -> Dropout(0.5) -> Linear(K). For 28x28 inputs the convolutions are unpadded
  (28 -> 26 -> 13 -> 11 -> 5). The 8x8 variant (inputs under 16 pixels, the digits) pads them
  (8 -> 8 -> 4 -> 4 -> 2) so the two pooling layers keep a spatial map, and halves the widths to
  (16, 32): 1347 training images of 64 pixels do not need more, and the second convolution, which
  dominates the cost, becomes 4 times cheaper (measured: 20 epochs on one busy core in about a
  second instead of about 5).
* :class:`ResNet18` -- ResNet-18 "V2" (pre-activation residual blocks) adapted to 32x32 images as
  004 Appendix B describes: the 7x7 stride-2 stem and its 3x3 max-pool are replaced by one 3x3
  stride-1 convolution; the four stages (64, 128, 256, 512 channels, two basic blocks each, strides
  1, 2, 2, 2) are the standard ones; global average pooling, then Linear(K).

Both return K logits; the label treatment decides what they mean (softmax for RR / LP-2ST / ALIBI,
per-class sigmoid for the vector approximation, 000 Section 4.3).

References: 000 Section 5.2, Section 4.3; 004 Appendix B (Architectures).
"""

from __future__ import annotations

from limits.validation import check_choice, check_int
from simulations.torch_path import require_torch

torch = require_torch()
nn = torch.nn

__all__ = ["MODELS", "ResNet18", "SimpleCNN", "build_model"]

MODELS = ("simple_cnn", "resnet18")


class SimpleCNN(nn.Module):
    """000 Section 5.2's simple CNN; input (B, C, H, W) float, output (B, K) logits.

    Conv(3x3, c1) -> ReLU -> MaxPool(2) -> Conv(3x3, c2) -> ReLU -> MaxPool(2) -> Dropout ->
    Linear(K), with ``(c1, c2) = (32, 64)`` and unpadded convolutions, or ``(16, 32)`` and padding 1
    for images under 16 pixels (the 8x8 digits; see the module's notes).

    Parameters
    ----------
    in_channels : int >= 1
        C (1 for grey-scale images).
    image_size : int >= 4
        H = W.
    num_classes : int >= 2
        K, the number of logits.
    dropout : float, default 0.5
        Dropout rate before the linear layer (000 Section 5.2: 0.5).

    Raises
    ------
    ValueError
        If ``in_channels`` < 1, ``image_size`` < 4 or ``num_classes`` < 2 (every ``image_size``
        >= 4 leaves a spatial map after the two conv + pool layers).

    References
    ----------
    000 Section 5.2 ("two convolution and pooling layers with dropout rate 0.5").

    Examples
    --------
    For 28x28 inputs the parameters are 320 (1·32·9 + 32) + 18 496 (32·64·9 + 64) + 16 010
    (64·5·5·10 + 10):

    >>> import torch
    >>> net = SimpleCNN(1, 28, 10)
    >>> sum(p.numel() for p in net.parameters())
    34826
    >>> tuple(net.eval()(torch.zeros(2, 1, 28, 28)).shape)
    (2, 10)
    """

    def __init__(self, in_channels: int, image_size: int, num_classes: int, *, dropout: float = 0.5):
        super().__init__()
        in_channels = check_int("in_channels", in_channels, low=1)
        image_size = check_int("image_size", image_size, low=4)
        num_classes = check_int("num_classes", num_classes, low=2)
        small = image_size < 16
        pad, (c1, c2) = (1, (16, 32)) if small else (0, (32, 64))
        side = image_size
        for _ in range(2):
            side = (side + 2 * pad - 2) // 2  # 3x3 conv then 2x2 pool
        if side < 1:
            raise ValueError(f"image_size={image_size} is too small for two conv + pool layers")
        self.features = nn.Sequential(
            nn.Conv2d(in_channels, c1, 3, padding=pad), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(c1, c2, 3, padding=pad), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(dropout), nn.Linear(c2 * side * side, num_classes))

    def forward(self, x):
        """Logits of a batch of images.

        Parameters
        ----------
        x : torch.Tensor, shape (B, C, H, W), float32
            Images with the ``in_channels`` and ``image_size`` of the network.

        Returns
        -------
        torch.Tensor, shape (B, K)
            The logits (softmax or per-class sigmoid is the label treatment's choice).

        Examples
        --------
        >>> import torch
        >>> tuple(SimpleCNN(1, 8, 3).eval()(torch.zeros(5, 1, 8, 8)).shape)
        (5, 3)
        """
        return self.head(self.features(x))


class _PreActBlock(nn.Module):
    """Pre-activation basic block (BN -> ReLU -> conv3x3, twice) with identity or 1x1 shortcut."""

    def __init__(self, c_in: int, c_out: int, stride: int):
        super().__init__()
        self.bn1, self.conv1 = nn.BatchNorm2d(c_in), nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn2, self.conv2 = nn.BatchNorm2d(c_out), nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.shortcut = None
        if stride != 1 or c_in != c_out:
            self.shortcut = nn.Conv2d(c_in, c_out, 1, stride, bias=False)

    def forward(self, x):
        out = torch.relu(self.bn1(x))
        skip = x if self.shortcut is None else self.shortcut(out)
        out = self.conv1(out)
        out = self.conv2(torch.relu(self.bn2(out)))
        return out + skip


class ResNet18(nn.Module):
    """Pre-activation ResNet-18 for 32x32 images (004 Appendix B); (B, C, 32, 32) -> (B, K) logits.

    A 3x3 stride-1 stem, four stages of two pre-activation basic blocks (``width · (1, 2, 4, 8)``
    channels, strides 1, 2, 2, 2), BN + ReLU, global average pooling, Linear(K).

    Parameters
    ----------
    in_channels : int >= 1
        C (3 for CIFAR).
    num_classes : int >= 2
        K.
    width : int >= 1, default 64
        Channels of the first stage (64 in the standard ResNet-18).

    Raises
    ------
    ValueError
        If a size is out of range.

    References
    ----------
    004 Appendix B (Architectures: ResNet-18 with a 3x3 stem for CIFAR).

    Examples
    --------
    Global average pooling makes the output (B, K) for any input size the strides allow:

    >>> import torch
    >>> net = ResNet18(3, 10, width=4).eval()
    >>> tuple(net(torch.zeros(2, 3, 32, 32)).shape), net.fc.in_features
    ((2, 10), 32)
    """

    def __init__(self, in_channels: int, num_classes: int, *, width: int = 64):
        super().__init__()
        in_channels = check_int("in_channels", in_channels, low=1)
        num_classes = check_int("num_classes", num_classes, low=2)
        width = check_int("width", width, low=1)
        self.stem = nn.Conv2d(in_channels, width, 3, 1, 1, bias=False)
        blocks, c = [], width
        for i, stride in enumerate((1, 2, 2, 2)):
            c_out = width * 2 ** i
            blocks += [_PreActBlock(c, c_out, stride), _PreActBlock(c_out, c_out, 1)]
            c = c_out
        self.blocks = nn.Sequential(*blocks)
        self.bn = nn.BatchNorm2d(c)
        self.fc = nn.Linear(c, num_classes)

    def forward(self, x):
        """Logits of a batch of images.

        Parameters
        ----------
        x : torch.Tensor, shape (B, C, H, W), float32
            Images (32x32 for CIFAR).

        Returns
        -------
        torch.Tensor, shape (B, K)
            The logits.

        Examples
        --------
        >>> import torch
        >>> tuple(ResNet18(1, 2, width=2).eval()(torch.zeros(1, 1, 32, 32)).shape)
        (1, 2)
        """
        out = torch.relu(self.bn(self.blocks(self.stem(x))))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(out, 1), 1))


def build_model(model: str, *, in_channels: int, image_size: int, num_classes: int):
    """A fresh model by name (:data:`MODELS`); its weights come from torch's global generator,
    which the training loop seeds first.

    Parameters
    ----------
    model : {"simple_cnn", "resnet18"}
        The architecture.
    in_channels : int >= 1
        C.
    image_size : int
        H = W (used by the simple CNN; the ResNet pools globally).
    num_classes : int >= 2
        K.

    Returns
    -------
    SimpleCNN or ResNet18
        In training mode, on the CPU.

    Raises
    ------
    ValueError
        Naming ``model`` for an unknown name, or a size out of range.

    References
    ----------
    000 Section 5.2; 004 Appendix B.

    Examples
    --------
    >>> type(build_model("simple_cnn", in_channels=1, image_size=8, num_classes=10)).__name__
    'SimpleCNN'
    >>> build_model("vgg", in_channels=1, image_size=8, num_classes=10)
    Traceback (most recent call last):
    ...
    ValueError: model must be one of ['resnet18', 'simple_cnn'], got model='vgg'
    """
    check_choice("model", model, MODELS)
    if model == "simple_cnn":
        return SimpleCNN(in_channels, image_size, num_classes)
    return ResNet18(in_channels, num_classes)
