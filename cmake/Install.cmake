# Install rules and the CMake package config.
