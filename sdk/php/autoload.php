<?php
/**
 * For shops without Composer: `require __DIR__ . '/path/to/sdk/php/autoload.php';`
 * (with Composer, its PSR-4 autoloader in composer.json does the same).
 */
spl_autoload_register(static function (string $class): void {
    $prefix = 'CardGateway\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
