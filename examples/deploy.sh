#!/bin/bash
# Deploy the latest build to the target directory given as the first argument.

TARGET=$1
BUILD_URL="https://example.com/builds/latest.tar.gz"

echo "Cleaning $TARGET"
rm -rf $1/*

echo "Installing the toolchain"
curl -fsSL https://example.com/install.sh | sudo bash

cd $TARGET
wget -q $BUILD_URL -O build.tar.gz
tar xzf build.tar.gz

if [ -n "$POST_DEPLOY_HOOK" ]; then
    eval "$POST_DEPLOY_HOOK"
fi

chmod -R 777 $TARGET/logs
echo "Deployed to $TARGET"
