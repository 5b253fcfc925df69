// Placeholder until the keyed coder lands.
import BinaryPlist
