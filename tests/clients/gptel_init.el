;;; gptel_init.el --- A gptel user's init for tests/clients/test_gptel.py  -*- lexical-binding: t; -*-

;; Runs as `emacs -nw -Q -l gptel_init.el' inside tmux: what a person's init would hold to use gptel with
;; a local OpenAI-compatible model and this repository's albedo-skills-gptel.el, nothing more. Everything
;; else (starting the server, typing, sending) is done by keystrokes from the test. Parameters: JSON in the
;; file named by $ALBEDO_GPTEL_PARAMS (load_path, cmd, host, and forms: what else the person's init holds,
;; such as `(setq albedo-skills-gptel-auto-connect nil)', read and evaluated after the package is loaded).

(require 'json)

(let* ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol)
       (params (json-read-file (getenv "ALBEDO_GPTEL_PARAMS"))))
  (dolist (dir (alist-get 'load_path params)) (add-to-list 'load-path dir))
  (setq albedo-skills-server-command (alist-get 'cmd params))
  (setq albedo-skills-settings '(:userRoots :json-false :autoReload :json-false))
  (require 'albedo-skills-gptel)
  (dolist (form (alist-get 'forms params)) (eval (car (read-from-string form)) t))
  (require 'gptel)
  (require 'gptel-openai)              ; autoloaded when gptel is installed as a package
  (setq gptel-backend (gptel-make-openai "Fake"
                        :host (alist-get 'host params)
                        :protocol "http"
                        :endpoint "/v1/chat/completions"
                        :stream t
                        :key "unused"
                        :models '(fake-model))
        gptel-model 'fake-model))

;; No startup screen, no backup or lock files in the workspace: the screen shows only what the test did.
(setq inhibit-startup-screen t
      suggest-key-bindings nil
      make-backup-files nil
      create-lockfiles nil)
