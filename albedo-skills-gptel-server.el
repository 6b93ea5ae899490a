;;; albedo-skills-gptel-server.el --- The albedo-skills-ls server of a gptel chat  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, convenience

;;; Commentary:

;; The half of albedo-skills-gptel.el that talks to the server: which server serves a chat, starting one
;; for the chat's project (by itself when a chat opens, or `M-x albedo-skills-gptel-connect'), waiting for
;; one that is starting, sending `workspace/executeCommand' requests with a deadline, and keeping each
;; server's catalog between sends.  What is asked and what is done with the answers is in
;; albedo-skills-gptel.el, which requires this file.
;;
;; The server is the one eglot runs for the chat's project (the nearest folder holding .agents, .albedo
;; or .git, the rule of albedo-skills.el), shared with the project's SKILL.md and chat files.  A gptel chat
;; usually visits no file, so eglot never attaches to it: the server is found as a chat file of that
;; folder would find it.  Nothing here starts the command line.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'albedo-skills)

(declare-function eglot-current-server "eglot")
(declare-function eglot "eglot")
(declare-function jsonrpc-running-p "jsonrpc")
(declare-function jsonrpc-async-request "jsonrpc")
(defvar eglot-sync-connect)
(defvar eglot-server-initialized-hook)

(defcustom albedo-skills-gptel-auto-connect t
  "Non-nil: a gptel chat starts albedo-skills-ls for its project by itself.
When `gptel-mode' turns on in a buffer whose folder is in a project (the
nearest folder holding one of `albedo-skills-root-markers'), the server is
started with eglot unless one runs or is starting there already, as the
Neovim plugin attaches a chat buffer.  Nil: a chat uses a server only once
`albedo-skills-gptel-connect' ran, or a SKILL.md or chat file of the
project was opened."
  :type 'boolean
  :group 'albedo-skills)

(defun albedo-skills-gptel--say (format-string &rest args)
  "Show one message, prefixed so its source is plain."
  (apply #'message (concat "albedo-skills: " format-string) args))

(defun albedo-skills-gptel--project-root (buffer)
  "The project folder of BUFFER by the package's rule, or nil."
  (cdr (albedo-skills-project-find (buffer-local-value 'default-directory buffer))))

(defun albedo-skills-gptel--project-name (buffer)
  "BUFFER's project folder as a person reads it (its folder when it has none)."
  (abbreviate-file-name (or (albedo-skills-gptel--project-root buffer)
                            (buffer-local-value 'default-directory buffer))))

;;;; Which server serves a chat

(defvar-local albedo-skills-gptel--found-server nil
  "(DIRECTORY . SERVER) last found for this chat, so a send skips the project lookup.")

(defun albedo-skills-gptel--server (buffer)
  "The live albedo-skills-ls server eglot runs for BUFFER's project, or nil.
A gptel buffer is in no mode of this package, so the lookup is made as a
chat buffer of the same folder would make it.  The server found is kept
for BUFFER while it runs and BUFFER's folder stays the same."
  (when (fboundp 'eglot-current-server)
    (with-current-buffer buffer
      (let ((directory default-directory)
            (found albedo-skills-gptel--found-server))
        (if (and (equal (car found) directory) (jsonrpc-running-p (cdr found)))
            (cdr found)
          (let ((server (with-temp-buffer
                          (setq default-directory directory)
                          (setq major-mode 'albedo-skills-chat-mode) ; no mode hooks: only the lookup's key
                          (add-hook 'project-find-functions #'albedo-skills-project-find nil t)
                          (eglot-current-server))))
            (when (and server (jsonrpc-running-p server))
              (setq albedo-skills-gptel--found-server (cons directory server))
              server)))))))

;;;; Starting one

(defvar albedo-skills-gptel--starting (make-hash-table :test #'equal)
  "Project folder -> the server eglot is starting there, until its handshake ends.
eglot registers a server for its project only once the server answered
`initialize'; until then `eglot-current-server' finds nothing, and this
table is what says that one is on its way.")

(defun albedo-skills-gptel--starting-server (buffer)
  "The server being started for BUFFER's project, or nil.
An entry whose process ended, or whose server is now found, is dropped."
  (when-let* ((root (albedo-skills-gptel--project-root buffer))
              (server (gethash root albedo-skills-gptel--starting)))
    (if (and (jsonrpc-running-p server) (not (albedo-skills-gptel--server buffer)))
        server
      (remhash root albedo-skills-gptel--starting)
      nil)))

(defun albedo-skills-gptel--start (buffer)
  "Start albedo-skills-ls with eglot for BUFFER's project, without waiting.
Returns the project folder.  The handshake goes on in the background
\(eglot says \"Connected!\" when it ends); meanwhile the server is in
`albedo-skills-gptel--starting', so a completion or a send waits for it."
  (require 'eglot)
  (let ((root (or (albedo-skills-gptel--project-root buffer)
                  (user-error "albedo-skills: no folder holding %s above %s"
                              (string-join albedo-skills-root-markers ", ")
                              (buffer-local-value 'default-directory buffer))))
        (started nil))
    (let ((eglot-sync-connect nil)    ; a chat opening never waits for Python to start
          (eglot-server-initialized-hook
           (cons (lambda (server) (setq started server)) eglot-server-initialized-hook)))
      ;; eglot 1.9 (Emacs 28) takes one language id here; eglot 1.15 and later one per mode.
      (eglot '(albedo-skills-file-mode albedo-skills-chat-mode) (cons 'transient root)
             'eglot-lsp-server (albedo-skills--contact)
             (if (fboundp 'eglot--languages)
                 (list "markdown" albedo-skills-chat-language-id)
               albedo-skills-chat-language-id)))
    (when started
      (puthash root started albedo-skills-gptel--starting))
    root))

(defun albedo-skills-gptel-connect ()
  "Start albedo-skills-ls with eglot for this chat's project.
It manages the project's SKILL.md and chat files, and serves this chat.
A chat does this by itself when `albedo-skills-gptel-auto-connect' is on."
  (interactive)
  (cond
   ((albedo-skills-gptel--server (current-buffer))
    (albedo-skills-gptel--say "the server already runs for %s" (albedo-skills-gptel--project-name (current-buffer))))
   ((albedo-skills-gptel--starting-server (current-buffer))
    (albedo-skills-gptel--say "the server is starting for %s" (albedo-skills-gptel--project-name (current-buffer))))
   (t (albedo-skills-gptel--say "starting the server for %s"
                                (abbreviate-file-name (albedo-skills-gptel--start (current-buffer)))))))

(defun albedo-skills-gptel--auto-connect (chat)
  "Start CHAT's server if `albedo-skills-gptel-auto-connect' is on.
Unless one runs or starts already, and only in a project.  Never an
error: a server that cannot start is said in one message, and the chat
works as without this package."
  (when (and albedo-skills-gptel-auto-connect
             (albedo-skills-gptel--project-root chat)
             (not (albedo-skills-gptel--server chat))
             (not (albedo-skills-gptel--starting-server chat)))
    (condition-case err
        (albedo-skills-gptel--start chat)
      (error (albedo-skills-gptel--say "could not start albedo-skills-ls for %s: %s"
                                       (albedo-skills-gptel--project-name chat) (error-message-string err))))))

(defun albedo-skills-gptel--server-or-wait (buffer deadline)
  "BUFFER's server; if one is starting, wait for it until DEADLINE.
DEADLINE is a `float-time'.
Returns the server, `starting' when it is still starting at DEADLINE, or
nil when none runs or starts.  While it waits, a message says so."
  (or (albedo-skills-gptel--server buffer)
      (when-let ((starting (albedo-skills-gptel--starting-server buffer)))
        (albedo-skills-gptel--say "waiting for albedo-skills-ls to start for %s (at most %d s)"
                                  (albedo-skills-gptel--project-name buffer) (ceiling (- deadline (float-time))))
        (let (server)
          ;; The handshake's answer is read here: eglot registers the server from the process filter.
          (while (and (not (setq server (albedo-skills-gptel--server buffer)))
                      (jsonrpc-running-p starting)
                      (< (float-time) deadline))
            (accept-process-output nil (- deadline (float-time))))
          (cond (server (message nil) server)
                ((jsonrpc-running-p starting) 'starting))))))

;;;; Requests

(defconst albedo-skills-gptel--read-chunk (* 1024 1024)
  "Bytes Emacs reads from the server at a time while a send waits.
Emacs 28 reads 4 KiB by default; a catalog of 128 skills is tens of KiB.")

(defun albedo-skills-gptel--execute (server calls deadline)
  "Send CALLS to SERVER at once and wait for their answers until DEADLINE.
CALLS is a list of (COMMAND . ARGUMENTS) for workspace/executeCommand;
DEADLINE a `float-time'.  Returns one answer per call, in order:
\(ok . RESULT), (refused . MESSAGE), or nil when none came in time."
  (let* ((answers (make-vector (length calls) nil))
         (pending (length calls))
         (all-answered (make-symbol "all-answered"))
         (waiting nil)
         (answered (lambda (index answer)
                     (aset answers index answer)
                     (when (and (zerop (cl-decf pending)) waiting)
                       ;; Out of `accept-process-output' at once: left to return by itself, it
                       ;; can wait on after the answer was read (about 15 ms here on Emacs 28).
                       (throw all-answered t)))))
    (cl-loop
     for (command . arguments) in calls
     for index from 0
     do (let ((index index))
          (jsonrpc-async-request
           server :workspace/executeCommand
           (list :command command :arguments (vconcat arguments))
           :success-fn (lambda (result) (funcall answered index (cons 'ok result)))
           :error-fn (lambda (error)
                       (funcall answered index (cons 'refused (or (plist-get error :message) "refused"))))
           :timeout-fn #'ignore        ; the deadline below ends the wait
           :timeout (max 0.001 (- deadline (float-time))))))
    ;; Woken by the server's output; never past the deadline, so Emacs is never held longer.
    (let ((read-process-output-max (max read-process-output-max albedo-skills-gptel--read-chunk)))
      (catch all-answered
        (unwind-protect
            (progn
              (setq waiting t)
              (while (and (> pending 0) (jsonrpc-running-p server) (< (float-time) deadline))
                (accept-process-output nil (- deadline (float-time)))))
          (setq waiting nil))))
    (append answers nil)))

;;;; Each server's catalog, kept between sends

(defvar albedo-skills-gptel--catalogs (make-hash-table :test #'eq :weakness 'key)
  "Each server's skill entries, kept until its next albedoSkills/catalogChanged.")

(defun albedo-skills-gptel--forget-catalogs ()
  "Drop every kept catalog."
  (clrhash albedo-skills-gptel--catalogs))

(defun albedo-skills-gptel--keep-catalog (server entries)
  "Keep the skill entries of ENTRIES and return them.
ENTRIES is SERVER's answer to `commands.catalog'."
  (puthash server (cl-remove-if-not (lambda (entry) (equal (plist-get entry :kind) "skill"))
                                    (append entries nil))
           albedo-skills-gptel--catalogs))

(defun albedo-skills-gptel--prefetch (server)
  "Ask SERVER for its catalog without waiting, and keep it when it comes.
Emacs parses a catalog of 128 skills in tens of milliseconds (and eglot's
event log pretty-prints it): done ahead, a send pays only its invokes."
  (jsonrpc-async-request server :workspace/executeCommand '(:command "commands.catalog" :arguments [])
                         :success-fn (lambda (entries) (albedo-skills-gptel--keep-catalog server entries))
                         :error-fn #'ignore :timeout-fn #'ignore))

(defun albedo-skills-gptel--prefetch-for (chat)
  "Fetch the catalog of CHAT's server ahead of the first send, unless kept."
  (when-let ((server (albedo-skills-gptel--server chat)))
    (when (eq (gethash server albedo-skills-gptel--catalogs 'none) 'none)
      (albedo-skills-gptel--prefetch server))))

(defun albedo-skills-gptel--connected (server)
  "Fetch the catalog of SERVER, just connected, if a chat started it."
  (when (cl-loop for started being the hash-values of albedo-skills-gptel--starting
                 thereis (eq started server))
    (albedo-skills-gptel--prefetch server)))

(with-eval-after-load 'eglot
  (defvar eglot-connect-hook)
  (add-hook 'eglot-connect-hook #'albedo-skills-gptel--connected)
  (cl-defmethod eglot-handle-notification :after
    (server (_method (eql 'albedoSkills/catalogChanged)) &rest _params)
    "Drop SERVER's kept catalog; fetch the new one if a chat used the old."
    ;; Answers and notifications come in the server's order, so a catalog answered before this
    ;; notification is dropped here and one answered after it is the new catalog.
    (unless (eq (gethash server albedo-skills-gptel--catalogs 'none) 'none)
      (remhash server albedo-skills-gptel--catalogs)
      (albedo-skills-gptel--prefetch server))))

(defun albedo-skills-gptel--skill-entries (server deadline)
  "The catalog's skill entries (plists) from SERVER, or a symbol saying why not:
`timeout' or the refusal's message.  Kept per server until the server
announces a new catalog, so a send usually asks only `commands.invoke'."
  (let ((kept (gethash server albedo-skills-gptel--catalogs 'none)))
    (if (listp kept)
        kept
      (pcase (car (albedo-skills-gptel--execute server '(("commands.catalog")) deadline))
        (`(ok . ,entries) (albedo-skills-gptel--keep-catalog server entries))
        (`(refused . ,why) why)
        (_ 'timeout)))))

(provide 'albedo-skills-gptel-server)
;;; albedo-skills-gptel-server.el ends here
